// How every test and benchmark starts Debian's Chromium here: headless, and without the background
// connections (updates, sync, QUIC) that this machine's closed network refuses many at a time.
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
