const path = require('path');
const { task, src, dest } = require('gulp');

task('build:icons', copyIcons);

function copyIcons() {
	const nodeSource = path.resolve('icons', '**', '*.{png,svg}');
	const nodeDestination = path.resolve('dist', 'icons');
	src(nodeSource).pipe(dest(nodeDestination));
	const nodeSourceNodes = path.resolve('nodes', '**', '*.{png,svg}');
	const nodeDestinationNodes = path.resolve('dist', 'nodes');
	src(nodeSourceNodes).pipe(dest(nodeDestinationNodes));
	const credSource = path.resolve('credentials', '**', '*.{png,svg}');
	const credDestination = path.resolve('dist', 'credentials');
	return src(credSource).pipe(dest(credDestination));
}
