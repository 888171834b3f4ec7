// The flags every Chromium of the project's tests and bench starts with (Playwright's and
// Lighthouse's): no sandbox (containers), no GPU, and none of the background traffic (QUIC,
// updates, sync) that would add requests or noise to what is measured.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
