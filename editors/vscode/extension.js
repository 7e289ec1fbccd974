// Starts `qlint server` for YAML files and hands it to VS Code's LSP client: diagnostics,
// quick fixes, hover, completion and go to definition all come from the server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("qlint").get("command");
  client = new LanguageClient(
    "qlint",
    "qlint",
    { command, args },
    {
      documentSelector: [{ scheme: "file", language: "yaml" }],
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.yaml,*.yml,pyproject.toml,qlint.toml}"),
      },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
