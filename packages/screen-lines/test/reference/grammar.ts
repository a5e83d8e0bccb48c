// The Screen Lines grammar: a document is lines, a line is atoms (spaces are skipped by the lexer; the visitor
// groups adjacent atoms into terms by offset). Meaning (which component, which argument) lives in the visitor.
import { type CstNode, CstParser, type IToken } from 'chevrotain';
import { Atom, allTokens, Newline } from './lexer.js';

class LinesParser extends CstParser {
  constructor() {
    super(allTokens, { recoveryEnabled: false, maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  readonly document = this.RULE('document', () => {
    this.MANY(() => {
      this.OR([{ ALT: () => this.CONSUME(Newline) }, { ALT: () => this.SUBRULE(this.line) }]);
    });
  });

  readonly line = this.RULE('line', () => {
    this.AT_LEAST_ONE(() => this.CONSUME(Atom));
  });
}

/** The one parser instance, reused for every call (chevrotain parsers are built once and reset per input). */
const parser = new LinesParser();

/** Parses tokens into a document CST. The grammar accepts every token sequence the lexer can produce. */
export function parseDocument(tokens: IToken[]): { cst: CstNode; errors: number } {
  parser.input = tokens;
  const cst = parser.document();
  return { cst, errors: parser.errors.length };
}

/** Base class for the CST visitor that gives the lines their meaning. */
export const BaseVisitor = parser.getBaseCstVisitorConstructorWithDefaults();
