// The colour theme: the system's (`prefers-color-scheme`) unless the player chose light or dark with the switch in
// the page's header, remembered in this browser. A classic script loaded in the head, before the page is drawn, so
// that a dark page never flashes light; it adds the switch once the header is there.

(() => {
  const KEY = 'pacw-setting-theme';
  const root = document.documentElement;
  const chosen = () => {
    try {
      const v = JSON.parse(localStorage.getItem(KEY));
      return v === 'light' || v === 'dark' ? v : 'system';
    } catch {
      return 'system';
    }
  };
  // The stylesheet reads `data-theme` (light or dark); without it the system's preference holds.
  const apply = (theme) => {
    if (theme === 'system') root.removeAttribute('data-theme');
    else root.dataset.theme = theme;
  };
  apply(chosen());
  document.addEventListener('DOMContentLoaded', () => {
    const nav = document.querySelector('header.top nav');
    if (!nav) return;
    const select = document.createElement('select');
    select.id = 'theme';
    select.className = 'theme-switch';
    select.setAttribute('aria-label', 'Colour theme');
    for (const [value, text] of [['system', 'Auto theme'], ['light', 'Light'], ['dark', 'Dark']]) {
      select.append(new Option(text, value, false, value === chosen()));
    }
    select.addEventListener('change', () => {
      if (select.value === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, JSON.stringify(select.value));
      apply(select.value);
    });
    nav.append(select);
  });
})();
