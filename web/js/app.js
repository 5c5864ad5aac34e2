// The page router: `/` is the lobby, `/game/{token}` a battle (with `?replay` the replay view).

import { showLobby } from './lobby.js';
import { showBattle } from './battle.js';

const app = document.getElementById('app');
const match = location.pathname.match(/^\/game\/([0-9a-fA-F]+)\/?$/);
if (match) {
  showBattle(app, match[1], new URLSearchParams(location.search).has('replay'));
} else {
  showLobby(app);
}
