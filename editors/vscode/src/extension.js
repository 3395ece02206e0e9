// TaxPro for Visual Studio Code: starts the language server (`taxpro lsp`) for .tax files.
// Plain JavaScript against the vscode-languageclient API (no build step).
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

/** The user's TaxPro settings. */
function readSettings() {
  const config = vscode.workspace.getConfiguration('taxpro');
  const year = config.get('year', null);
  return {
    serverPath: config.get('serverPath', 'taxpro') || 'taxpro',
    year: typeof year === 'number' ? year : null,
    inlayHints: config.get('inlayHints.enabled', true) !== false,
  };
}

/**
 * What the server receives, as initializationOptions and as the `taxpro` section of
 * workspace/didChangeConfiguration: { year: number | null (null = latest), inlayHints: boolean }.
 */
function serverOptionsFrom(settings) {
  return { year: settings.year, inlayHints: settings.inlayHints };
}

function createClient(settings) {
  const serverOptions = {
    command: settings.serverPath,
    args: ['lsp'],
    transport: TransportKind.stdio,
  };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'taxpro' },
      { scheme: 'untitled', language: 'taxpro' },
    ],
    initializationOptions: serverOptionsFrom(settings),
    outputChannelName: 'TaxPro Language Server',
  };
  return new LanguageClient('taxpro', 'TaxPro Language Server', serverOptions, clientOptions);
}

async function startClient() {
  const settings = readSettings();
  client = createClient(settings);
  try {
    await client.start();
  } catch (error) {
    vscode.window.showErrorMessage(
      `TaxPro: could not start '${settings.serverPath} lsp' (${error && error.message ? error.message : error}). ` +
        'Set "taxpro.serverPath" to the taxpro executable.'
    );
  }
  return client;
}

async function restartClient() {
  if (client) {
    const old = client;
    client = undefined;
    try {
      await old.stop();
    } catch (_) {
      // The server may already be gone.
    }
  }
  return startClient();
}

/** Forward a change of the TaxPro settings to the running server, or restart it for a new path. */
async function onConfigurationChanged(event) {
  if (!event.affectsConfiguration('taxpro')) {
    return;
  }
  if (event.affectsConfiguration('taxpro.serverPath')) {
    await restartClient();
    return;
  }
  if (client) {
    await client.sendNotification('workspace/didChangeConfiguration', {
      settings: { taxpro: serverOptionsFrom(readSettings()) },
    });
  }
}

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(onConfigurationChanged),
    vscode.commands.registerCommand('taxpro.restartServer', restartClient)
  );
  await startClient();
}

function deactivate() {
  if (!client) {
    return undefined;
  }
  const old = client;
  client = undefined;
  return old.stop();
}

module.exports = { activate, deactivate, readSettings, serverOptionsFrom };
