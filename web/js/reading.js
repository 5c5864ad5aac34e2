// The reading pages (/rules, /guide, /format): rule ids in the text become links to their sections, and the
// section an address points at is marked.

import { prepareReading, setRulesPage } from './util.js';

// Rule ids lead where the page's own link to the rules leads (from the site's root on a server, relative to the
// page in the static build).
setRulesPage(document.querySelector('a.rules-link')?.getAttribute('href') || '/rules');
const main = document.getElementById('reading');
prepareReading(main);

function mark() {
  for (const el of main.querySelectorAll('.target-section')) el.classList.remove('target-section');
  const id = decodeURIComponent(location.hash.slice(1));
  const el = id && document.getElementById(id);
  if (el) el.classList.add('target-section');
}
window.addEventListener('hashchange', mark);
mark();
