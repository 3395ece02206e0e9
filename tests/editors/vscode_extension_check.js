// Runs editors/vscode/src/extension.js under Node with small stand-ins for the `vscode` and
// `vscode-languageclient/node` modules (neither can be installed here), and prints as JSON what
// the extension asked of them: how it starts the server, the initializationOptions, and what it
// sends when the settings change. Usage: node vscode_extension_check.js <path to extension.js>
'use strict';

const Module = require('module');

const settings = { serverPath: 'taxpro', year: null, 'inlayHints.enabled': true };
const record = { clients: [], notifications: [], commands: [], messages: [] };
let configurationListener = null;

const vscode = {
  workspace: {
    getConfiguration(section) {
      if (section !== 'taxpro') throw new Error(`unexpected configuration section ${section}`);
      return { get: (key, fallback) => (key in settings ? settings[key] : fallback) };
    },
    onDidChangeConfiguration(listener) {
      configurationListener = listener;
      return { dispose() {} };
    },
  },
  commands: {
    registerCommand(name) {
      record.commands.push(name);
      return { dispose() {} };
    },
  },
  window: {
    showErrorMessage(message) { record.messages.push(message); },
    showWarningMessage(message) { record.messages.push(message); },
    showInformationMessage(message) { record.messages.push(message); },
  },
};

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.entry = { id, name, serverOptions, clientOptions, started: false, stopped: false };
    record.clients.push(this.entry);
  }
  async start() { this.entry.started = true; }
  async stop() { this.entry.stopped = true; }
  async sendNotification(method, params) { record.notifications.push({ method, params }); }
}

const languageclient = { LanguageClient, TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 } };

const originalLoad = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscode;
  if (request === 'vscode-languageclient/node') return languageclient;
  return originalLoad.call(this, request, parent, isMain);
};

function change(keys) {
  return { affectsConfiguration: (section) => keys.some((k) => k === section || k.startsWith(section + '.')) };
}

(async () => {
  const extension = require(process.argv[2]);
  const context = { subscriptions: [] };
  await extension.activate(context);
  record.subscriptions = context.subscriptions.length;

  settings.year = 2025;
  await configurationListener(change(['taxpro.year']));
  settings['inlayHints.enabled'] = false;
  await configurationListener(change(['taxpro.inlayHints.enabled']));
  await configurationListener(change(['editor.fontSize']));
  settings.serverPath = '/opt/taxpro/bin/taxpro';
  await configurationListener(change(['taxpro.serverPath']));

  await extension.deactivate();
  process.stdout.write(JSON.stringify(record));
})().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
