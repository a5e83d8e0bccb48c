// A small TeX-to-MathML translator for `math` lines: browsers draw MathML with system fonts, so no web fonts ship.
import { mathml } from './dom.js';

const SYMBOLS: Record<string, string> = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ϵ',
  varepsilon: 'ε',
  zeta: 'ζ',
  eta: 'η',
  theta: 'θ',
  iota: 'ι',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  xi: 'ξ',
  pi: 'π',
  rho: 'ρ',
  sigma: 'σ',
  tau: 'τ',
  upsilon: 'υ',
  phi: 'ϕ',
  varphi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
  Gamma: 'Γ',
  Delta: 'Δ',
  Theta: 'Θ',
  Lambda: 'Λ',
  Xi: 'Ξ',
  Pi: 'Π',
  Sigma: 'Σ',
  Phi: 'Φ',
  Psi: 'Ψ',
  Omega: 'Ω',
  infty: '∞',
  partial: '∂',
  nabla: '∇',
  hbar: 'ℏ',
  ell: 'ℓ',
  emptyset: '∅',
};
const OPERATORS: Record<string, string> = {
  times: '×',
  cdot: '⋅',
  div: '÷',
  pm: '±',
  mp: '∓',
  le: '≤',
  leq: '≤',
  ge: '≥',
  geq: '≥',
  ne: '≠',
  neq: '≠',
  approx: '≈',
  equiv: '≡',
  sim: '∼',
  propto: '∝',
  to: '→',
  rightarrow: '→',
  leftarrow: '←',
  Rightarrow: '⇒',
  Leftrightarrow: '⇔',
  in: '∈',
  notin: '∉',
  subset: '⊂',
  cup: '∪',
  cap: '∩',
  forall: '∀',
  exists: '∃',
  cdots: '⋯',
  ldots: '…',
  circ: '∘',
  deg: '°',
  neg: '¬',
  land: '∧',
  lor: '∨',
  sum: '∑',
  prod: '∏',
  int: '∫',
  oint: '∮',
  lim: 'lim',
  sin: 'sin',
  cos: 'cos',
  tan: 'tan',
  log: 'log',
  ln: 'ln',
  exp: 'exp',
  max: 'max',
  min: 'min',
  langle: '⟨',
  rangle: '⟩',
  lbrace: '{',
  rbrace: '}',
  '{': '{',
  '}': '}',
  '%': '%',
  $: '$',
  '#': '#',
  '&': '&',
  _: '_',
};
const BIG = new Set(['sum', 'prod', 'lim', 'int', 'oint']);
const SPACES: Record<string, string> = {
  ',': '0.17em',
  ':': '0.22em',
  ';': '0.28em',
  quad: '1em',
  qquad: '2em',
  ' ': '0.25em',
};

type Token = { kind: 'cmd' | 'char'; text: string };

function tokenize(tex: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < tex.length; ) {
    const c = tex[i]!;
    if (c === '\\') {
      const word = /^[A-Za-z]+/.exec(tex.slice(i + 1));
      const name = word ? word[0] : (tex[i + 1] ?? '');
      tokens.push({ kind: 'cmd', text: name });
      i += 1 + Math.max(1, name.length);
    } else if (/\s/.test(c)) i++;
    else {
      tokens.push({ kind: 'char', text: c });
      i++;
    }
  }
  return tokens;
}

class Reader {
  private at = 0;
  constructor(
    private readonly doc: Document,
    private readonly tokens: Token[],
  ) {}

  /** A sequence up to `}` (consumed by the caller) or the end. */
  row(stop?: string): Element {
    const items: Element[] = [];
    while (this.at < this.tokens.length) {
      const t = this.tokens[this.at]!;
      if (t.kind === 'char' && t.text === '}') break;
      if (stop && t.kind === 'char' && t.text === stop) break;
      items.push(this.scripted());
    }
    return items.length === 1 ? items[0]! : mathml(this.doc, 'mrow', {}, ...items);
  }

  private scripted(): Element {
    const base = this.atom();
    let sub: Element | undefined;
    let sup: Element | undefined;
    for (;;) {
      const t = this.tokens[this.at];
      if (t?.kind !== 'char' || (t.text !== '^' && t.text !== '_')) break;
      this.at++;
      const arg = this.at < this.tokens.length ? this.atom() : mathml(this.doc, 'mrow');
      if (t.text === '^') sup = arg;
      else sub = arg;
    }
    if (!sub && !sup) return base;
    const big = base.getAttribute('data-big') === '1';
    if (sub && sup) return mathml(this.doc, big ? 'munderover' : 'msubsup', {}, base, sub, sup);
    if (sub) return mathml(this.doc, big ? 'munder' : 'msub', {}, base, sub);
    return mathml(this.doc, big ? 'mover' : 'msup', {}, base, sup!);
  }

  private group(): Element {
    const t = this.tokens[this.at];
    if (t?.kind === 'char' && t.text === '{') {
      this.at++;
      const inner = this.row();
      this.at++; // the closing brace (or the end)
      return inner;
    }
    return this.at < this.tokens.length ? this.atom() : mathml(this.doc, 'mrow');
  }

  private rawGroup(): string {
    const t = this.tokens[this.at];
    if (t?.kind !== 'char' || t.text !== '{') return '';
    let depth = 0;
    let text = '';
    for (this.at++; this.at < this.tokens.length; this.at++) {
      const tok = this.tokens[this.at]!;
      if (tok.kind === 'char' && tok.text === '{') depth++;
      if (tok.kind === 'char' && tok.text === '}' && depth-- === 0) break;
      text += tok.kind === 'cmd' ? `\\${tok.text}` : tok.text;
    }
    this.at++;
    return text;
  }

  private atom(): Element {
    const doc = this.doc;
    const t = this.tokens[this.at++]!;
    if (t.kind === 'char') {
      if (t.text === '{') {
        const inner = this.row();
        this.at++;
        return inner;
      }
      if (/[0-9.]/.test(t.text)) {
        let digits = t.text;
        while (/^[0-9.]$/.test(this.tokens[this.at]?.text ?? '') && this.tokens[this.at]!.kind === 'char') {
          digits += this.tokens[this.at++]!.text;
        }
        return mathml(doc, 'mn', {}, digits);
      }
      if (/[A-Za-z]/.test(t.text)) return mathml(doc, 'mi', {}, t.text);
      return mathml(doc, 'mo', {}, t.text === '-' ? '−' : t.text);
    }
    const name = t.text;
    if (name === 'frac' || name === 'dfrac') return mathml(doc, 'mfrac', {}, this.group(), this.group());
    if (name === 'sqrt') {
      const open = this.tokens[this.at];
      if (open?.kind === 'char' && open.text === '[') {
        this.at++;
        const index = this.row(']');
        this.at++;
        const body = this.group();
        return mathml(doc, 'mroot', {}, body, index);
      }
      return mathml(doc, 'msqrt', {}, this.group());
    }
    if (name === 'text' || name === 'mathrm' || name === 'operatorname') {
      return mathml(doc, 'mtext', {}, this.rawGroup());
    }
    if (name === 'mathbf') return mathml(doc, 'mrow', { mathvariant: 'bold' }, this.group());
    if (name === 'left' || name === 'right') {
      const fence = this.tokens[this.at++];
      const text = fence ? (OPERATORS[fence.text] ?? fence.text) : '';
      return mathml(doc, 'mo', { fence: 'true' }, text === '.' ? '' : text);
    }
    if (Object.hasOwn(SPACES, name)) return mathml(doc, 'mspace', { width: SPACES[name] });
    if (Object.hasOwn(SYMBOLS, name)) return mathml(doc, 'mi', {}, SYMBOLS[name]);
    if (Object.hasOwn(OPERATORS, name)) {
      const big = BIG.has(name);
      return mathml(
        doc,
        'mo',
        { 'data-big': big ? '1' : undefined, largeop: big && name !== 'lim' ? 'true' : undefined },
        OPERATORS[name],
      );
    }
    // An unknown command is shown as written rather than dropped, so the person still sees the formula.
    return mathml(doc, 'mtext', {}, `\\${name}`);
  }

  get done(): boolean {
    return this.at >= this.tokens.length;
  }

  skip(): void {
    this.at++;
  }
}

/**
 * Translates TeX (a practical subset: scripts, `\frac`, `\sqrt`, Greek, common operators, `\text`) to a
 * MathML `<math display="block">` element labelled with the source. Never throws: stray braces are skipped
 * and unknown commands are shown as written.
 *
 * @example
 * ```ts
 * texToMathml(document, 'E = mc^2'); // <math display="block" aria-label="E = mc^2"><mrow><mi>E</mi>...</mrow></math>
 * ```
 */
export function texToMathml(doc: Document, tex: string): Element {
  const reader = new Reader(doc, tokenize(tex));
  const parts: Element[] = [];
  while (!reader.done) {
    parts.push(reader.row());
    reader.skip(); // an unmatched `}`
  }
  return mathml(doc, 'math', { display: 'block', 'aria-label': tex }, mathml(doc, 'mrow', {}, ...parts));
}
