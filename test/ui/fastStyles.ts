/**
 * A faster getComputedStyle for page tests, with the same answers.
 *
 * jsdom computes an element's style by matching it against every rule of every style sheet
 * (style-rules.js, `forEachMatchingSheetRuleOfElement`), and forgets every element's style at any
 * change of the document. MUI's styles are thousands of class rules (emotion adds one per style it
 * has ever rendered in the file), and getComputedStyle is called all the time: Testing Library's
 * role queries and accessible names (is it hidden?), user-event's pointer-events check, MUI's
 * TextareaAutosize on every render. In a page test that was half the CPU, most of it in nwsapi
 * matching `.css-1x2y3z`-like selectors against elements that do not carry that class.
 *
 * So before nwsapi matches a rule's selector against an element, a cheap test rules out the
 * selectors that cannot match: a selector matches only if, for one of its comma-separated
 * alternatives, the element has every class named in that alternative's last compound selector
 * (outside :not(), :is()... and attribute selectors). Selectors that this reading cannot decide
 * (an alternative without such a class, escapes) always go to nwsapi. The check only ever skips a
 * match that would have failed, so computed styles are unchanged; class names are compared
 * case-insensitively, so it skips no more in quirks mode either.
 *
 * LABDESK_SLOW_STYLES=1 turns it off (to compare); LABDESK_VERIFY_STYLES=<file> still asks nwsapi
 * about every skipped match and writes any it would have made (there should be none) to that file.
 */

import { appendFileSync } from 'node:fs';

/** For each alternative, the classes (lower case) its last compound requires; null: undecidable, ask nwsapi. */
function requiredClasses(selector: string): string[][] | null {
  if (selector.includes('\\')) return null;
  const alternatives: string[][] = [];
  let depth = 0; // parentheses and brackets
  let quote = '';
  let classes: string[] = [];
  const endAlternative = () => {
    if (classes.length === 0) return false;
    alternatives.push(classes);
    classes = [];
    return true;
  };
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth > 0) continue;
    else if (c === ',') {
      if (!endAlternative()) return null;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '>' || c === '+' || c === '~') {
      // A combinator, or white space before a comma or at the end: a later compound replaces this one's classes.
      let j = i;
      while (j < selector.length && /[\s>+~]/.test(selector[j]!)) j++;
      if (j < selector.length && selector[j] !== ',') classes = [];
      i = j - 1;
    } else if (c === '.') {
      const name = /^[\w\u00a0-\uffff-]+/.exec(selector.slice(i + 1))?.[0];
      if (!name) return null;
      classes.push(name.toLowerCase());
      i += name.length;
    }
  }
  if (quote || depth !== 0 || !endAlternative()) return null;
  return alternatives;
}

const parsed = new Map<string, string[][] | null>();

interface ElementImpl {
  /** Bumped by jsdom at every change of the element: its attributes, its children, its descendants. */
  _version: number;
  getAttributeNS(namespace: null, name: string): string | null;
}
let implSymbol: symbol;
// nwsapi is asked about one element for every rule in turn: its classes are read once for all of them.
let lastImpl: ElementImpl | undefined;
let lastVersion = -1;
let lastNames = new Set<string>();

function classesOf(element: Element): Set<string> {
  const impl = (element as unknown as Record<symbol, ElementImpl>)[implSymbol]!;
  if (impl !== lastImpl || impl._version !== lastVersion) {
    const raw = impl.getAttributeNS(null, 'class') ?? '';
    lastNames = new Set(raw.toLowerCase().split(/[\t\n\f\r ]+/).filter(Boolean));
    lastImpl = impl;
    lastVersion = impl._version;
  }
  return lastNames;
}

function mayMatch(selector: unknown, element: Element): boolean {
  if (typeof selector !== 'string') return true; // not a style rule (@font-face...): as before
  let required = parsed.get(selector);
  if (required === undefined) {
    required = requiredClasses(selector);
    parsed.set(selector, required);
  }
  if (!required) return true;
  const names = classesOf(element);
  for (const alternative of required) {
    let all = true;
    for (const name of alternative) {
      if (!names.has(name)) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

const verify = { calls: 0, skipped: 0 };
const verifyTo = process.env.LABDESK_VERIFY_STYLES;

interface Nwsapi {
  match(selectors: unknown, element: Element, callback?: unknown): boolean;
}

/**
 * Puts the check in front of the nwsapi instance jsdom's style computation uses for this document
 * (`_nwsapiDontThrow`, created on first use; only style-rules.js matches with it). Does nothing if
 * jsdom no longer has it: tests are then as slow as before, not wrong.
 */
export function speedUpComputedStyle(document: Document, window: Window): void {
  const symbol = Object.getOwnPropertySymbols(document).find((s) => s.description === 'impl');
  const impl = symbol && (document as unknown as Record<symbol, { _nwsapiDontThrow?: Nwsapi & { __labdeskFast?: true } }>)[symbol];
  if (!impl || process.env.LABDESK_SLOW_STYLES) return;
  window.getComputedStyle(document.documentElement); // creates it
  const nw = impl._nwsapiDontThrow;
  if (!nw || typeof nw.match !== 'function' || nw.__labdeskFast) return;
  implSymbol = symbol;
  const match = nw.match.bind(nw);
  nw.match = (selectors, element, callback) => {
    if (verifyTo) {
      const skip = !mayMatch(selectors, element);
      verify.calls++;
      if (skip) verify.skipped++;
      if (verify.calls % 200_000 === 0) appendFileSync(verifyTo, `calls ${verify.calls} skipped ${verify.skipped} selectors ${parsed.size}\n`);
      if (skip && match(selectors, element, callback)) appendFileSync(verifyTo, `WRONG ${String(selectors)} on ${element.outerHTML.slice(0, 200)}\n`);
    }
    return mayMatch(selectors, element) ? match(selectors, element, callback) : false;
  };
  nw.__labdeskFast = true;
}

/**
 * The same declaration for the same element until the document changes: jsdom recomputes an
 * element's style from its declaration (cached until any change of the document) at each call,
 * walking up to the root for every inherited property (visibility, pointer-events, color...).
 * Testing Library asks about the same elements and their ancestors many times in one query, and
 * again in the next query if nothing changed. A result is kept as long as jsdom keeps its own
 * cache of declarations (the same `_styleCache` object), which it drops at every change of an
 * element in the document and of its style sheets: what it answers from is then what it last
 * answered from.
 */
export function memoizeComputedStyle(document: Document, window: Window): void {
  const symbol = Object.getOwnPropertySymbols(document).find((s) => s.description === 'impl');
  const impl = symbol && (document as unknown as Record<symbol, { _styleCache?: object | null }>)[symbol];
  if (!impl || !('_styleCache' in impl) || process.env.LABDESK_SLOW_STYLES) return;
  // Installed once per window: with vitest's isolate off, one jsdom window serves several files.
  if ((window.getComputedStyle as { __labdeskMemo?: true }).__labdeskMemo) return;
  const compute = window.getComputedStyle;
  let owner: object | null | undefined = null;
  let results = new WeakMap<Element, CSSStyleDeclaration>();
  window.getComputedStyle = (element: Element, pseudoElement?: string | null) => {
    if (pseudoElement) return compute(element, pseudoElement);
    if (owner && impl._styleCache === owner) {
      const known = results.get(element);
      if (known) {
        if (verifyTo && known.cssText !== compute(element).cssText) appendFileSync(verifyTo, `STALE ${element.outerHTML.slice(0, 200)}\n`);
        return known;
      }
    }
    const result = compute(element);
    if (impl._styleCache !== owner) {
      owner = impl._styleCache;
      results = new WeakMap();
    }
    results.set(element, result);
    return result;
  };
  (window.getComputedStyle as { __labdeskMemo?: true }).__labdeskMemo = true;
}

export const forTests = { requiredClasses };
