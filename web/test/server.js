'use strict';
// A static server for the browser tests: web/dist/ at /dist/ and the test pages at /, with
// or without the headers that make a page cross-origin isolated (SharedArrayBuffer).

const http = require('http');
const fs = require('fs');
const path = require('path');

const WEB = path.resolve(__dirname, '..');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

function serve({ isolated }) {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (pathname === '/favicon.ico') {
      // The browser asks; the tests' pages have none.
      res.writeHead(204);
      res.end();
      return;
    }
    const file = pathname.startsWith('/dist/') ? path.join(WEB, pathname) : path.join(__dirname, 'pages', pathname === '/' ? 'engine.html' : pathname);
    if (!file.startsWith(WEB) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    const headers = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' };
    if (isolated) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

module.exports = { serve };
