// The browser tests' harness is the playground server of `npm run demo`: tests import the demo, never
// the reverse.
export * from '../../demo/playground-server';
