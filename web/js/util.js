// Small DOM helpers shared by the pages: elements, percentages, side colours and links to the rules.

/// Makes an element: h('button', { class: 'x', onclick }, 'text', child…).
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'class') node.className = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false || c === '') continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// Whether the player presses with a finger (or a pen) rather than a mouse: the last press says so, and before any
// press the primary pointer's precision (a touch screen's is coarse). Told by the pointer, never by the browser's
// name, so that a laptop with a touch screen says "tap" after a tap and "click" after a click.
let touching = matchMedia('(pointer: coarse)').matches;
addEventListener('pointerdown', (ev) => { touching = ev.pointerType !== 'mouse'; }, { capture: true, passive: true });

/// The verb for pressing something on the screen: "click", or "tap" on a touch screen (`capital` for "Click", "Tap").
export function pressWord(capital = false) {
  const word = touching ? 'tap' : 'click';
  return capital ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/// A percentage of a decimal probability.
export function percent(p) {
  return `${(100 * p).toFixed(1)}%`;
}

let rulesPage = '/rules'; // set by app.js and reading.js from where the site is

/// Where rule links lead: the rules of play, or a game's own rules page when a variant plays it (the same
/// sections, under the variant's tables).
export function setRulesPage(path) {
  rulesPage = path;
  const top = document.querySelector('.top-nav a.rules-link');
  if (top) top.href = path;
}

/// A rule id such as R6.4 or R6.3c: its section on the rules page (lettered parts have anchors of their own).
export function ruleHref(id) {
  return `${rulesPage}#${id}`;
}

const RULE_ID = /\bR\d+(?:\.\d+[a-z]?)?\b/g;

/// Text with every rule id (R6.4, R6.3c …) turned into a link to its section of the rules: a fragment.
export function withRuleLinks(text) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const m of String(text).matchAll(RULE_ID)) {
    if (m.index > last) out.append(text.slice(last, m.index));
    out.append(h('a', { class: 'rule', href: ruleHref(m[0]), target: 'pacw-rules', title: `Rule ${m[0]}` }, m[0]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.append(text.slice(last));
  return out;
}

/// A reading page's text (`root`) made ready to read: every rule id outside links, code and headings a link to its
/// section of the rules, in the same tab; every table, which scrolls sideways on a phone, reachable by the keyboard.
export function prepareReading(root) {
  for (const table of root.querySelectorAll('table')) table.tabIndex = 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement.closest('a, code, pre, h1, h2, h3') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const texts = [];
  while (walker.nextNode()) if (/\bR\d/.test(walker.currentNode.textContent)) texts.push(walker.currentNode);
  for (const node of texts) {
    const links = withRuleLinks(node.textContent);
    for (const a of links.querySelectorAll('a')) a.removeAttribute('target');
    node.replaceWith(links);
  }
}

/// A side's display colour (the scenario's `counter`), and its name.
export function sideColour(scenario, side) {
  return scenario.sides.find((s) => s.side === side)?.counter || (side === 'A' ? '#2b4c7e' : '#6b6b6b');
}

export function sideName(scenario, side) {
  return scenario.sides.find((s) => s.side === side)?.name || side;
}

/// A side's name in its colour, as an element.
export function sideTag(scenario, side, text) {
  return h('span', { class: 'side-tag', style: `--side:${sideColour(scenario, side)}` }, text ?? sideName(scenario, side));
}

/// A date and time in the reader's locale, short.
export function when(ms) {
  return ms ? new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '';
}

/// Puts text on the clipboard; resolves true when it worked (it needs a secure context or a user gesture).
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h('textarea', { style: 'position:fixed;opacity:0' }, text);
    document.body.append(area);
    area.select();
    const ok = document.execCommand && document.execCommand('copy');
    area.remove();
    return Boolean(ok);
  }
}

/// A scenario check's warnings (keys nothing reads), one line each as `pacw check` prints them.
export function warningLines(reply) {
  return (reply.warnings || []).map((w) => `${reply.file}:${w.line}:${w.column}: warning: ${w.message}`).join('\n');
}
