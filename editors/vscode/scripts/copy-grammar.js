// Copies the TextMate grammar from grammar/ (its source of truth, at the top of the repository)
// into this extension, so that `vsce package` ships it. Run by `npm run vscode:prepublish`.
'use strict';

const fs = require('fs');
const path = require('path');

const source = path.resolve(__dirname, '..', '..', '..', 'grammar', 'taxpro.tmLanguage.json');
const target = path.resolve(__dirname, '..', 'syntaxes', 'taxpro.tmLanguage.json');

JSON.parse(fs.readFileSync(source, 'utf8')); // refuse to copy a broken grammar
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(source, target);
console.log(`copied ${path.relative(process.cwd(), source)} -> ${path.relative(process.cwd(), target)}`);
