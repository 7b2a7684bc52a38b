// undici as the plugin loads it (src/client/undici.ts: three files, the HTTP/2 connector stood in): a row of section 9.
import '../../src/client/undici.js';
