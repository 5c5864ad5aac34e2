// The page router: `/` is the lobby, `/editor` the scenario editor, `/game/{token}` a battle, `/game/{token}?replay`
// its replay, `/game/{token}?review` its replay with the review made and shown; the club's pages: `/account`,
// `/players/{name}`, `/leaderboard`, `/room` and an invitation `/room/{id}`.

import { showLobby } from './lobby.js';
import { showBattle } from './battle.js';
import { showReplay } from './replay.js';
import { showEditor } from './editor.js';
import { showAccount, showInvitation, showLeaderboard, showPlayer, showRoom } from './club.js';
import { showAccountInHeader } from './account.js';
import { showKeys } from './keys.js';

const app = document.getElementById('app');
const path = location.pathname;
const match = path.match(/^\/game\/([0-9a-fA-F]+)\/?$/);
const player = path.match(/^\/players\/([^/]+)\/?$/);
const invitation = path.match(/^\/room\/([0-9a-fA-F]{32})\/?$/);
if (/^\/editor\/?$/.test(path)) {
  showEditor(app);
} else if (/^\/account\/?$/.test(path)) {
  showAccount(app);
} else if (/^\/leaderboard\/?$/.test(path)) {
  showLeaderboard(app);
} else if (/^\/room\/?$/.test(path)) {
  showRoom(app);
} else if (invitation) {
  showInvitation(app, invitation[1]);
} else if (player) {
  showPlayer(app, decodeURIComponent(player[1]));
} else if (!match) {
  showLobby(app);
} else if (new URLSearchParams(location.search).has('replay') || new URLSearchParams(location.search).has('review')) {
  showReplay(app, match[1], { review: new URLSearchParams(location.search).has('review') });
} else {
  showBattle(app, match[1]);
}

showAccountInHeader();
document.querySelector('.keys-button')?.addEventListener('click', showKeys);
