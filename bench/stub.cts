/**
 * The benchmark's stand-in for the service, run in its own process (bench/lib.cts startStub): every POST answers a
 * company lookup of about STUB_BODY_BYTES bytes after STUB_LATENCY_MS ms, echoing the CIN it got; GET
 * …/statement-result answers a statement of STUB_TRANSACTIONS transactions (built once). 127.0.0.1 only.
 */
import { createServer } from 'node:http';

const port = Number(process.env.STUB_PORT ?? 0);
const latencyMs = Number(process.env.STUB_LATENCY_MS ?? 20);
const bodyBytes = Number(process.env.STUB_BODY_BYTES ?? 2048);
const transactionCount = Number(process.env.STUB_TRANSACTIONS ?? 100_000);

function companyBody(cin: string): string {
	const directors = Array.from({ length: 4 }, (_, i) => ({
		din: String(1000000 + i).padStart(8, '0'),
		name: `DIRECTOR NUMBER ${i + 1}`,
		designation: i === 0 ? 'Managing Director' : 'Director',
		date_of_appointment: `0${i + 1}/04/2015`,
	}));
	const body = {
		status_code: 200,
		success: true,
		message: 'Success',
		data: {
			cin,
			result: {
				company: {
					cin,
					legal_name: 'ACME INFRASTRUCTURE AND LOGISTICS PRIVATE LIMITED',
					status: 'Active',
					class_of_company: 'Private',
					company_category: 'Company limited by Shares',
					company_sub_category: 'Non-govt company',
					date_of_incorporation: '12/03/2010',
					registered_office_address: '4TH FLOOR, 12 MG ROAD, BENGALURU, KARNATAKA 560001',
					state: 'Karnataka',
					roc_code: 'RoC-Bangalore',
					registration_number: '100000',
					authorised_capital: '1000000',
					paid_up_capital: '500000',
					number_of_members: '0',
					email: 'accounts@acme.example',
				},
				directors,
				padding: '',
			},
		},
	};
	const text = JSON.stringify(body);
	body.data.result.padding = 'x'.repeat(Math.max(0, bodyBytes - text.length));
	return JSON.stringify(body);
}

let statement: Buffer | undefined;
function statementBody(): Buffer {
	if (statement) return statement;
	const transactions = Array.from({ length: transactionCount }, (_, i) => ({
		sr_no: i + 1,
		txn_date: `${String((i % 28) + 1).padStart(2, '0')}-0${(i % 9) + 1}-24`,
		value_date: `${String((i % 28) + 1).padStart(2, '0')}-0${(i % 9) + 1}-24`,
		reference_no: `UTR${100000000 + i}`,
		description: i % 3 === 0 ? `UPI/CR/${i}/MERCHANT PAYMENT/okaxis` : `NEFT-SALARY-ACME LTD-${i}`,
		txn_type: i % 2 ? 'Dr.' : 'Cr.',
		credit: i % 2 ? '' : 1000 + (i % 500),
		debit: i % 2 ? 200 + (i % 300) : '',
		balance: 50000 + i,
	}));
	statement = Buffer.from(
		JSON.stringify({
			status_code: 200,
			success: true,
			data: {
				client_id: 'aa_0123456789abcdef01234567',
				status: 'analysis_complete',
				total_accounts: 1,
				accounts: [
					{
						account_index: 0,
						bank_name: 'HDFC Bank',
						account_number: 'XXXXXX1234',
						transactions,
					},
				],
			},
		}),
	);
	return statement;
}

const server = createServer((req, res) => {
	const chunks: Buffer[] = [];
	req.on('data', (c: Buffer) => chunks.push(c));
	req.on('end', () => {
		if (req.method === 'GET' && req.url?.includes('statement-result')) {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(statementBody());
			return;
		}
		let cin = 'U72200KA2010PTC100000';
		try {
			cin = (JSON.parse(Buffer.concat(chunks).toString()) as { cin?: string }).cin ?? cin;
		} catch {
			// not JSON: answer with the default CIN
		}
		const body = companyBody(cin);
		setTimeout(() => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(body);
		}, latencyMs);
	});
});
server.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => {
	server.closeAllConnections();
	server.close(() => process.exit(0));
});
