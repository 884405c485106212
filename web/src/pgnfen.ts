// PGN and FEN in and out: the current position's FEN and the game's PGN to copy or save, and
// a FEN or PGN pasted in to play on from. What is refused gets the rules' own message and
// the game being played stays as it was.

import { messageOf } from './rules';

export interface PgnFenHost {
  fen(): string;
  pgn(): string;
  loadFen(fen: string): Promise<void>;
  loadPgn(text: string): Promise<void>;
  variantName(): string;
}

export class PgnFenPanel {
  private readonly fenInput: HTMLInputElement;
  private readonly pgnText: HTMLTextAreaElement;
  private readonly message: HTMLElement;

  constructor(root: HTMLElement, private readonly host: PgnFenHost) {
    this.fenInput = root.querySelector('#fen') as HTMLInputElement;
    this.pgnText = root.querySelector('#pgn') as HTMLTextAreaElement;
    this.message = root.querySelector('#io-message') as HTMLElement;
    const on = (id: string, fn: () => void) => root.querySelector(`#${id}`)!.addEventListener('click', fn);
    on('fen-load', () => void this.loadFen());
    on('pgn-load', () => void this.loadPgn());
    on('fen-copy', () => void this.copy(this.host.fen(), 'FEN'));
    on('pgn-copy', () => void this.copy(this.host.pgn(), 'PGN'));
    on('pgn-save', () => this.save());
    this.fenInput.addEventListener('keydown', e => {
      if (e.key === 'Enter') {
        e.preventDefault();
        void this.loadFen();
      }
    });
  }

  /** Shows the current game (after every change). */
  update(): void {
    if (document.activeElement !== this.fenInput) this.fenInput.value = this.host.fen();
    if (document.activeElement !== this.pgnText) this.pgnText.value = this.host.pgn();
  }

  /** Forgets the last message (a new game has been started by other means). */
  clearMessage(): void {
    this.say('', false);
  }

  private say(text: string, error: boolean): void {
    this.message.textContent = text;
    this.message.classList.toggle('error', error);
  }

  private async loadFen(): Promise<void> {
    const fen = this.fenInput.value;
    try {
      await this.host.loadFen(fen);
      this.say(`Position set (${this.host.variantName()}).`, false);
      this.fenInput.blur();
      this.update();
    } catch (e) {
      this.say(`FEN refused: ${messageOf(e)}`, true);
    }
  }

  private async loadPgn(): Promise<void> {
    try {
      await this.host.loadPgn(this.pgnText.value);
      this.say(`Game loaded (${this.host.variantName()}).`, false);
      this.pgnText.blur();
      this.update();
    } catch (e) {
      this.say(`PGN refused: ${messageOf(e)}`, true);
    }
  }

  private async copy(text: string, what: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.say(`${what} copied.`, false);
    } catch {
      this.say(`${what} is in the box: select it and copy.`, false);
    }
  }

  private save(): void {
    const blob = new Blob([this.host.pgn()], { type: 'application/x-chess-pgn' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `cannonade-${this.host.variantName()}.pgn`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
}
