'use strict';
/**
 * Preloaded into the service by bench/rows.js when PROFILE_DIR is set (`node -r bench/profile-on-signal.js …`):
 * the first SIGWINCH (Nest shuts down on SIGUSR2) starts a CPU profile, the next one writes it to PROFILE_DIR/<n>.cpuprofile (open it in Chrome
 * DevTools or read it with bench/profile-summary.js), and so on. Start-up and seeding stay out of the profile.
 */
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const session = new Session();
session.connect();
let running = false;
let written = 0;
process.on('SIGWINCH', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    return;
  }
  session.post('Profiler.stop', (error, result) => {
    running = false;
    if (error) return console.error(error);
    const file = join(process.env.PROFILE_DIR, `${++written}.cpuprofile`);
    writeFileSync(file, JSON.stringify(result.profile));
    console.error(`profile written: ${file}`);
  });
});
