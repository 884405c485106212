/*
 * Cannonade's Web Worker (see docs/web.md): started by Cannonade() in cannonade.js, whose
 * first message says where cannonade.js and the module are. It loads cannonade.js (the same
 * script the page runs) and hands over to its worker side.
 */
'use strict';
self.onmessage = function (e) {
  self.onmessage = null;
  importScripts(e.data.scriptUrl || 'cannonade.js');
  self.CannonadeWorkerMain(self, e.data);
};
