// The chooser: where one gesture matches several legal moves (a promotion, promoting or
// not, any other case the rules allow), the page asks which one, showing each choice as the
// piece that would stand there afterwards and the move's name. Escape or Cancel: none.

import type { Color } from './rules';

export interface Choice {
  /** The move's name in the game's notation. */
  label: string;
  /** The piece (as a FEN writes it) the move leaves on its destination, if any. */
  piece: string | null;
}

export function choose(host: HTMLElement, variantClass: string, choices: Choice[], title: string): Promise<number | null> {
  return new Promise(resolve => {
    const overlay = document.createElement('div');
    overlay.className = `chooser ${variantClass}`;
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-label', title);
    const box = document.createElement('div');
    box.className = 'chooser-box';
    const heading = document.createElement('p');
    heading.className = 'chooser-title';
    heading.textContent = title;
    box.appendChild(heading);
    const list = document.createElement('div');
    list.className = 'chooser-list';
    const done = (i: number | null) => {
      document.removeEventListener('keydown', onKey, true);
      overlay.remove();
      resolve(i);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        done(null);
      }
    };
    choices.forEach((c, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice';
      b.dataset.choice = c.label;
      if (c.piece) b.appendChild(pieceElement(c.piece));
      const label = document.createElement('span');
      label.className = 'choice-label';
      label.textContent = c.label;
      b.appendChild(label);
      b.addEventListener('click', () => done(i));
      list.appendChild(b);
    });
    box.appendChild(list);
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'chooser-cancel';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => done(null));
    box.appendChild(cancel);
    overlay.appendChild(box);
    overlay.addEventListener('mousedown', e => {
      if (e.target === overlay) done(null);
    });
    document.addEventListener('keydown', onKey, true);
    host.appendChild(overlay);
    (list.querySelector('button') as HTMLButtonElement | null)?.focus();
  });
}

/** A piece drawn outside the board with the board's piece set (the same classes). */
export function pieceElement(fenPiece: string, side?: Color): HTMLElement {
  const letter = fenPiece.replace('+', '');
  const color: Color = side ?? (letter === letter.toUpperCase() ? 'white' : 'black');
  const role = `${fenPiece.startsWith('+') ? 'p' : ''}${letter.toLowerCase()}-piece`;
  const el = document.createElement('piece');
  el.className = `${color} ally ${fenPiece.startsWith('+') ? 'promoted ' : ''}${role}`;
  return el;
}
