/**
 * Every custom LSP request and notification between the Pipeline SQL client and server, and the
 * message types of the webview. Methods are named `pipelineSql/…`. The client, the server and the
 * webview import their types from here and from nowhere else.
 */
export {};

//#region Client → Server

//#endregion

//#region Server → Client

//#endregion
