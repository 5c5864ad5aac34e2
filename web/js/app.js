// The page router: `/` is the lobby, `/editor` the scenario editor, `/game/{token}` a battle, `/game/{token}?replay`
// its replay.

import { showLobby } from './lobby.js';
import { showBattle } from './battle.js';
import { showReplay } from './replay.js';
import { showEditor } from './editor.js';

const app = document.getElementById('app');
const match = location.pathname.match(/^\/game\/([0-9a-fA-F]+)\/?$/);
if (/^\/editor\/?$/.test(location.pathname)) {
  showEditor(app);
} else if (!match) {
  showLobby(app);
} else if (new URLSearchParams(location.search).has('replay')) {
  showReplay(app, match[1]);
} else {
  showBattle(app, match[1]);
}

import { showKeys } from './keys.js';

document.querySelector('.keys-button')?.addEventListener('click', showKeys);
