import { randomUUID } from 'node:crypto';

/** An email the sandbox "sent" (`GET /__sandbox/outbox`). */
export interface Email {
	id: string;
	to: string;
	subject: string;
	text: string;
	link: string;
	session_id: string;
	sent_at: string;
}

export class Outbox {
	private messages: Email[] = [];

	send(email: Omit<Email, 'id' | 'sent_at'>): Email {
		const message = { id: `mail_${randomUUID()}`, sent_at: new Date().toISOString(), ...email };
		this.messages.push(message);
		return message;
	}

	list(): Email[] {
		return [...this.messages];
	}

	clear(): void {
		this.messages = [];
	}
}
