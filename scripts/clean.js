// Removes dist/ before a build so deleted sources never linger in the package.
require('fs').rmSync(require('path').join(__dirname, '..', 'dist'), {
	recursive: true,
	force: true,
});
