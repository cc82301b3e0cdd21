// Runs before `npm start`: builds dist/ when it is missing or older than a source file.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execSync } = require('node:child_process');

const root = path.join(__dirname, '..');
const target = path.join(root, 'dist', 'bin.js');

function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

const built = fs.existsSync(target) ? fs.statSync(target).mtimeMs : 0;
if (built < newest(path.join(root, 'lib'))) {
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
