// The page router: where the game lives (api.js) says which page an address shows — the lobby, the scenario
// editor, a battle, or its replay (with the review made and shown for `review`).

import { api } from './api.js';
import { showLobby } from './lobby.js';
import { showBattle } from './battle.js';
import { showReplay } from './replay.js';
import { showEditor } from './editor.js';
import { showKeys } from './keys.js';

const app = document.getElementById('app');
const route = api.route();
if (route.page === 'editor') showEditor(app);
else if (route.page === 'replay') showReplay(app, route.token, { review: route.review });
else if (route.page === 'battle') showBattle(app, route.token);
else showLobby(app);

document.querySelector('.keys-button')?.addEventListener('click', showKeys);
