// The settings page's server, started by the Homebridge UI: the compiled TypeScript in dist/ui does the work.
import '../dist/ui/server.js';
