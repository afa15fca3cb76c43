// kagent auth login / status / logout / token. The key is checked with GET /me
// before it is saved, shown masked everywhere (kak_…abcd), and printed in full
// only by `auth token`.
import { defineGroup } from '../../src/kit/define.js';
import login from './login.js';
import status from './status.js';
import logout from './logout.js';
import token from './token.js';

export default defineGroup({
  description: "Keys are created in your account settings. Precedence: KAGENT_API_KEY > the profile's saved key.",
  examples: ['kagent auth login --base-url https://example.com/api/v1', 'kagent auth status', 'kagent auth logout'],
  commands: [login, status, logout, token],
});
