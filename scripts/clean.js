// @ts-check
'use strict';
// Removes dist/ before a build so deleted sources never linger in the package.
require('node:fs').rmSync(require('./lib/places').FOLDERS.dist, { recursive: true, force: true });
