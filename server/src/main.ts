import { startServer } from './language-server.js';

// Entry of the bundle VS Code starts (`out/server.cjs --node-ipc`).
startServer();
