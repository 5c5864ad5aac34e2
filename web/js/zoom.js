// Zoom and pan for a board bigger than its screen (a 12-column battle on a phone): the whole board fits the width at
// first; buttons and a two-finger pinch zoom it, one finger (or the scroll bars) pans it, and while it is zoomed the
// files and ranks stay on the frame's edges so that every square can still be named.

import { squareName } from './squares.js';
import { h } from './util.js';

const MIN = 1;
const MAX = 4;
const STEP = 1.5;

export class BoardZoom {
  /// `wrap` is the scrolling box that holds `board`'s SVG; the zoom buttons and the rulers are placed in `frame`,
  /// which holds `wrap`.
  constructor(frame, wrap, board) {
    this.frame = frame;
    this.wrap = wrap;
    this.board = board;
    this.zoom = MIN;
    this.files = h('div', { class: 'ruler files', 'aria-hidden': 'true' });
    this.ranks = h('div', { class: 'ruler ranks', 'aria-hidden': 'true' });
    const button = (id, label, text, onclick) => h('button', { class: 'secondary', id, 'aria-label': label, title: label, onclick }, text);
    this.bar = h('div', { class: 'zoom-bar', role: 'group', 'aria-label': 'Zoom' },
      button('zoom-in', 'Zoom in', '+', () => this.set(this.zoom * STEP)),
      button('zoom-out', 'Zoom out', '−', () => this.set(this.zoom / STEP)),
      button('zoom-fit', 'Fit the board', 'fit', () => this.set(MIN)));
    frame.append(this.files, this.ranks, this.bar);
    wrap.addEventListener('scroll', () => this.placeRulers(), { passive: true });
    window.addEventListener('resize', () => this.placeRulers());
    this.pinch();
    this.set(MIN);
  }

  /// Zooms to `zoom` (kept within 1–4), keeping the point of the board at the wrap's `focus` (client coordinates;
  /// by default its centre) where it is.
  set(zoom, focus = null) {
    const z = Math.min(MAX, Math.max(MIN, zoom));
    const box = this.wrap.getBoundingClientRect();
    const fx = (focus?.x ?? box.left + box.width / 2) - box.left;
    const fy = (focus?.y ?? box.top + box.height / 2) - box.top;
    const ratio = z / this.zoom;
    const [left, top] = [(this.wrap.scrollLeft + fx) * ratio - fx, (this.wrap.scrollTop + fy) * ratio - fy];
    this.zoom = z;
    const svg = this.board.svg;
    svg.style.width = `${z * 100}%`;
    svg.classList.toggle('zoomed', z > MIN);
    this.wrap.dataset.zoom = z.toFixed(2);
    this.wrap.scrollLeft = left;
    this.wrap.scrollTop = top;
    this.bar.querySelector('#zoom-out').disabled = z <= MIN;
    this.bar.querySelector('#zoom-fit').disabled = z <= MIN;
    this.bar.querySelector('#zoom-in').disabled = z >= MAX;
    this.placeRulers();
  }

  /// Two fingers on the board zoom it about their midpoint; the board's own click is not made by them.
  pinch() {
    const touches = new Map();
    let start = null;
    const spread = () => {
      const [a, b] = [...touches.values()];
      return { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
    };
    this.wrap.addEventListener('pointerdown', (ev) => {
      if (ev.pointerType !== 'touch') return;
      touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (touches.size === 2) {
        start = { ...spread(), zoom: this.zoom };
        this.board.pinching = true;
      }
    });
    this.wrap.addEventListener('pointermove', (ev) => {
      if (!touches.has(ev.pointerId)) return;
      touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (start && touches.size === 2) {
        const now = spread();
        this.set(start.zoom * (now.d / start.d), now.mid);
      }
    });
    const end = (ev) => {
      touches.delete(ev.pointerId);
      if (touches.size < 2) start = null;
      // The board forgets the pinch once every finger has left it.
      if (!touches.size) setTimeout(() => { this.board.pinching = false; }, 0);
    };
    this.wrap.addEventListener('pointerup', end);
    this.wrap.addEventListener('pointercancel', end);
  }

  /// While zoomed, each file's letter on the frame's bottom edge and each rank's number on its left edge, under and
  /// beside their squares as they now stand on the screen (the board may be turned).
  placeRulers() {
    const zoomed = this.zoom > MIN;
    this.files.hidden = !zoomed;
    this.ranks.hidden = !zoomed;
    if (!zoomed) return;
    const map = this.board.map;
    const frame = this.frame.getBoundingClientRect();
    const wrap = this.wrap.getBoundingClientRect();
    const onScreen = (name) => {
      const [cx, cy] = this.board.centre(name);
      const pt = this.board.svg.createSVGPoint();
      pt.x = cx;
      pt.y = cy;
      const ctm = this.board.world.getScreenCTM();
      return ctm ? pt.matrixTransform(ctm) : { x: -1e6, y: -1e6 };
    };
    const label = (text, style) => h('span', { style }, text);
    this.files.replaceChildren(...Array.from({ length: map.width }, (_, x) => {
      const p = onScreen(squareName(x, 0));
      return p.x < wrap.left || p.x > wrap.right ? '' : label(String.fromCharCode(97 + x), `left:${p.x - frame.left}px`);
    }));
    this.ranks.replaceChildren(...Array.from({ length: map.height }, (_, y) => {
      const p = onScreen(squareName(0, y));
      return p.y < wrap.top || p.y > wrap.bottom ? '' : label(String(y + 1), `top:${p.y - frame.top}px`);
    }));
    this.files.style.top = `${wrap.bottom - frame.top - 18}px`;
    this.ranks.style.left = `${wrap.left - frame.left}px`;
  }
}
