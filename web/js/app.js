// The page router: `/` is the lobby, `/editor` the scenario editor, `/game/{token}` a battle, `/game/{token}?replay`
// its replay, `/game/{token}?review` its replay with the review made and shown.

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
} else if (new URLSearchParams(location.search).has('replay') || new URLSearchParams(location.search).has('review')) {
  showReplay(app, match[1], { review: new URLSearchParams(location.search).has('review') });
} else {
  showBattle(app, match[1]);
}

import { showKeys } from './keys.js';

document.querySelector('.keys-button')?.addEventListener('click', showKeys);
