// The page router: where the game lives (api.js) says which page an address shows — the lobby, the scenario
// editor, a battle, or its replay (with the review made and shown for `review`), and on a server the club's pages.

import { api, features, pageHref } from './api.js';
import { showLobby } from './lobby.js';
import { showBattle } from './battle.js';
import { showReplay } from './replay.js';
import { showEditor } from './editor.js';
import { showRules } from './rules-page.js';
import { showAccount, showInvitation, showLeaderboard, showPlayer, showRoom } from './club.js';
import { showAccountInHeader } from './account.js';
import { showKeys } from './keys.js';
import { installHeaderMenu } from './header-menu.js';
import { setRulesPage } from './util.js';

const app = document.getElementById('app');
// Rule ids link to the rules of play until a game played by a variant says otherwise.
setRulesPage(pageHref('rules'));
const route = api.route();
if (route.page === 'editor') showEditor(app);
else if (route.page === 'account') showAccount(app);
else if (route.page === 'leaderboard') showLeaderboard(app);
else if (route.page === 'room') showRoom(app);
else if (route.page === 'invitation') showInvitation(app, route.id);
else if (route.page === 'player') showPlayer(app, route.name);
else if (route.page === 'rules') showRules(app, route.token, route.section);
else if (route.page === 'replay') showReplay(app, route.token, { review: route.review });
else if (route.page === 'battle') showBattle(app, route.token);
else showLobby(app);

if (features.club) showAccountInHeader();

document.querySelector('.keys-button')?.addEventListener('click', showKeys);
installHeaderMenu();
