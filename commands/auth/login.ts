// `kagent auth login`: declares the verb; src/auth/login.ts logs in.
import { defineCommand } from '../../src/kit/define.js';
import { logIn } from '../../src/auth/login.js';

export default defineCommand({
  name: 'login',
  summary: 'Log in with an API key (checked with the service before it is saved)',
  description:
    'On a terminal you are asked for the base URL (unless given) and the key (typed masked). In scripts, pipe the key in with --with-key. ' +
    'The profile (-p, default: the current one) is saved with its base URL and key in the config file (mode 0600) and becomes the current profile. ' +
    'A profile logged in already is replaced only after you say yes (elsewhere: --yes). A refused key is not saved; ' +
    'the base URL you gave is, so the next login asks only for the key.',
  options: [{ flags: '--with-key', description: 'read the API key from stdin instead of asking' }],
  examples: [
    'kagent auth login --base-url https://example.com/api/v1',
    'kagent auth login --base-url https://example.com/api/v1 --with-key < key.txt',
    'echo "$KEY" | kagent auth login -p work --with-key',
    'kagent auth login -p work --with-key --yes < new-key.txt',
  ],
  run: (ctx, opts) => logIn(ctx, opts),
});
