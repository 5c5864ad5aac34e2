// The header's links on a phone: folded behind a Menu button (the stylesheet hides them there until it is opened),
// so that the header keeps to one line; on a wide screen the button is not shown and the links are always there.

/// Makes the header's Menu button open and close its links; Escape closes them and gives the focus back to it.
export function installHeaderMenu() {
  const header = document.querySelector('header.top');
  const button = header?.querySelector('.menu-button');
  if (!button) return;
  const open = (yes) => {
    header.classList.toggle('menu-open', yes);
    button.setAttribute('aria-expanded', String(yes));
  };
  button.addEventListener('click', () => open(button.getAttribute('aria-expanded') !== 'true'));
  header.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !header.classList.contains('menu-open')) return;
    open(false);
    button.focus();
    e.stopPropagation();
  });
}
