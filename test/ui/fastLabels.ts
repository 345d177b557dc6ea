/**
 * A faster `label.control` for page tests, with the same answers.
 *
 * Testing Library's `getByLabelText` asks every element of the page for its `labels`; jsdom answers
 * each by walking the whole document and asking every label for its `control`, and a label with a
 * `for` attribute finds its control by walking the whole document again, looking for the id
 * (HTMLLabelElement-impl.js). On the order form (some 40 labelled fields) that was 40 % of a page
 * test's CPU (a profile of ordersCreate's "checks the zip code as the service does").
 *
 * jsdom already keeps the elements of a document by id (`_ids`, the cache its `getElementById`
 * reads). When the label is in the document and exactly one element of the document carries that
 * id, that element is the first one with it in tree order, which is what the walk would find; it is
 * the control if it is labelable (the spec's list, as jsdom's `isLabelable` has it). Anything else
 * (no `for`, an empty one, a label outside the document, an id carried twice or by an element
 * elsewhere) takes jsdom's own walk.
 *
 * LABDESK_SLOW_LABELS=1 turns it off (to compare); LABDESK_VERIFY_LABELS=1 also takes jsdom's walk
 * every time and throws if the answers differ.
 */

interface NodeImpl {
  nodeType: number;
  namespaceURI: string | null;
  localName: string;
  type?: string;
  _ceDefinition?: { formAssociated?: boolean };
  getAttributeNS(ns: null, name: string): string | null;
  getRootNode(options: object): unknown;
  _ownerDocument: { _ids?: Record<string, NodeImpl[] | undefined> };
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';

// https://html.spec.whatwg.org/multipage/forms.html#category-label, as jsdom's helpers/form-controls.js has it.
function isLabelable(node: NodeImpl): boolean {
  if (node.nodeType !== 1 || node.namespaceURI !== HTML_NS) return false;
  switch (node.localName) {
    case 'button':
    case 'meter':
    case 'output':
    case 'progress':
    case 'select':
    case 'textarea':
      return true;
    case 'input':
      return node.type !== 'hidden';
  }
  return Boolean(node._ceDefinition?.formAssociated);
}

export function speedUpLabels(document: Document) {
  if (process.env.LABDESK_SLOW_LABELS) return;
  const symbol = Object.getOwnPropertySymbols(document).find((s) => s.description === 'impl');
  const label = symbol && (document.createElement('label') as unknown as Record<symbol, object>)[symbol];
  if (!label) return;
  const proto = Object.getPrototypeOf(label) as object;
  const jsdomControl = Object.getOwnPropertyDescriptor(proto, 'control')?.get;
  // Installed once per window: with vitest's isolate off, one jsdom window serves several files.
  if (!jsdomControl || (jsdomControl as { __labdeskFast?: true }).__labdeskFast) return;
  const verify = Boolean(process.env.LABDESK_VERIFY_LABELS);

  function fastControl(this: NodeImpl): NodeImpl | null | undefined {
    const forValue = this.getAttributeNS(null, 'for');
    if (!forValue) return undefined;
    const doc = this._ownerDocument;
    const holders = doc._ids?.[forValue];
    if (holders?.length !== 1 || this.getRootNode({}) !== doc) return undefined;
    const holder = holders[0]!;
    if (holder.getRootNode({}) !== doc) return undefined;
    return isLabelable(holder) ? holder : null;
  }

  const control = function (this: NodeImpl) {
    const fast = fastControl.call(this);
    if (fast === undefined) return jsdomControl.call(this);
    if (verify && jsdomControl.call(this) !== fast) {
      throw new Error(`fastLabels: label[for="${this.getAttributeNS(null, 'for')}"] has another control than jsdom finds`);
    }
    return fast;
  };
  Object.defineProperty(control, '__labdeskFast', { value: true });
  Object.defineProperty(proto, 'control', { configurable: true, get: control });
}
