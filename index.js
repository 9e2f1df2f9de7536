// n8n loads this package through the "n8n" section of package.json (dist/…); nothing is exported here.
module.exports = {};
