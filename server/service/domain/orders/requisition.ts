import { eq, inArray } from 'drizzle-orm';
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import type { Database } from '../../../store/db';
import { labAccounts, labs, labTests, markers, type ServiceSchema } from '../../db/schema';
import { findOrderRow, type OrderRow } from './present';
import { orderStatus } from './statuses';

type Db = Database<ServiceSchema>;

/**
 * The clinical notes printed on a requisition: the order's own notes followed by the lab account's
 * default clinical notes; both when both exist, whichever exists otherwise, null when neither does.
 */
export function requisitionClinicalNotes(orderNotes: string | null | undefined, accountNotes: string | null | undefined): string | null {
  const parts = [orderNotes, accountNotes].map((s) => s?.trim() ?? '').filter((s) => s.length > 0);
  return parts.length ? parts.join('\n') : null;
}

export interface RequisitionData {
  order: OrderRow;
  test: typeof labTests.$inferSelect;
  lab: typeof labs.$inferSelect | undefined;
  markers: (typeof markers.$inferSelect)[];
  account: typeof labAccounts.$inferSelect | undefined;
}

/** Everything the requisition prints, for the team's order (404 otherwise). */
export async function requisitionData(db: Db, teamId: string, orderId: string): Promise<RequisitionData> {
  const order = await findOrderRow(db, teamId, orderId);
  const [test] = await db.select().from(labTests).where(eq(labTests.id, order.labTestId));
  const [lab] = await db.select().from(labs).where(eq(labs.id, test!.labId));
  const markerRows = test!.markerIds.length ? await db.select().from(markers).where(inArray(markers.id, test!.markerIds)) : [];
  const byId = new Map(markerRows.map((m) => [m.id, m]));
  const [account] = order.labAccountId ? await db.select().from(labAccounts).where(eq(labAccounts.id, order.labAccountId)) : [];
  return { order, test: test!, lab, markers: test!.markerIds.flatMap((id) => byId.get(id) ?? []), account };
}

const PAGE = { width: 612, height: 792, margin: 50 };
const SIZE = { title: 16, heading: 11, text: 9.5 };

/** Writes lines top to bottom, wrapping long text and starting new pages as needed. */
class Writer {
  private page!: PDFPage;
  private y = 0;
  private readonly encodable = new Map<string, boolean>();

  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  /** The standard fonts encode WinAnsi only: other characters print as "?". */
  clean(text: string): string {
    let out = '';
    for (const ch of text.replace(/\t/g, ' ')) {
      if (ch < ' ') continue;
      let ok = this.encodable.get(ch);
      if (ok === undefined) {
        try {
          this.font.encodeText(ch);
          this.bold.encodeText(ch);
          ok = true;
        } catch {
          ok = false;
        }
        this.encodable.set(ch, ok);
      }
      out += ok ? ch : '?';
    }
    return out;
  }

  private wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line = '';
      for (const word of this.clean(paragraph).split(' ')) {
        const candidate = line ? `${line} ${word}` : word;
        if (font.widthOfTextAtSize(candidate, size) <= width) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        // A word wider than the line is cut where it must be.
        let rest = word;
        while (font.widthOfTextAtSize(rest, size) > width) {
          let n = rest.length - 1;
          while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > width) n--;
          lines.push(rest.slice(0, n));
          rest = rest.slice(n);
        }
        line = rest;
      }
      lines.push(line);
    }
    return lines;
  }

  private ensure(height: number) {
    if (this.y - height < PAGE.margin) this.newPage();
  }

  text(text: string, opts: { size?: number; bold?: boolean; indent?: number; gap?: number } = {}) {
    const size = opts.size ?? SIZE.text;
    const font = opts.bold ? this.bold : this.font;
    const x = PAGE.margin + (opts.indent ?? 0);
    const lineHeight = size * 1.35;
    for (const line of this.wrap(text, font, size, PAGE.width - PAGE.margin - x)) {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      this.page.drawText(line, { x, y: this.y, size, font, color: rgb(0.1, 0.1, 0.1) });
    }
    this.y -= opts.gap ?? 0;
  }

  field(label: string, value: string | null | undefined) {
    this.text(`${label}: ${value === null || value === undefined || value === '' ? '-' : value}`, { indent: 8 });
  }

  heading(text: string) {
    this.y -= 8;
    this.ensure(SIZE.heading * 3);
    this.text(text, { size: SIZE.heading, bold: true, gap: 2 });
    this.page.drawLine({
      start: { x: PAGE.margin, y: this.y },
      end: { x: PAGE.width - PAGE.margin, y: this.y },
      thickness: 0.5,
      color: rgb(0.6, 0.6, 0.6),
    });
    this.y -= 3;
  }
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The insurance billed, as stored on the order (migration 0009): payor, member and group, and the subscriber. */
function printInsurance(w: Writer, insurance: Record<string, unknown> | null) {
  w.heading('Insurance');
  if (!insurance) {
    w.field('Payor', 'none recorded on the order');
    return;
  }
  w.field('Payor code', str(insurance.payor_code));
  w.field('Member id', str(insurance.insurance_id));
  w.field('Group id', str(insurance.group_id));
  w.field('Subscriber relationship', str(insurance.responsible_relationship));
  const subscriber = insurance.responsible_details as Record<string, unknown> | null | undefined;
  if (subscriber) w.field('Subscriber', `${str(subscriber.first_name)} ${str(subscriber.last_name)}`.trim());
  const codes = insurance.diagnosis_codes as string[] | null | undefined;
  if (codes?.length) w.field('Diagnosis codes billed', codes.join(', '));
}

/** The requisition form of an order, as a PDF. */
export async function renderRequisition(data: RequisitionData, now = new Date()): Promise<Uint8Array> {
  const { order, test, lab, account } = data;
  const doc = await PDFDocument.create();
  doc.setTitle(`Requisition ${order.id}`);
  doc.setSubject('Laboratory requisition');
  doc.setProducer('Labdesk');
  doc.setCreator('Labdesk service');
  doc.setCreationDate(now);
  doc.setModificationDate(now);
  const w = new Writer(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold));

  w.text('Laboratory Requisition', { size: SIZE.title, bold: true, gap: 4 });
  w.text(`Order ${order.id}`, { bold: true });
  w.text(`Printed ${now.toISOString()}`, { gap: 4 });

  w.heading('Order');
  w.field('Order id', order.id);
  w.field('Ordered', order.createdAt.toISOString());
  w.field('Last updated', order.updatedAt.toISOString());
  w.field('Status', orderStatus(order.status, order.collectionMethod, order.lowLevelStatus));
  w.field('Collection method', order.collectionMethod);
  w.field('Priority', order.priority ? 'STAT' : 'routine');
  w.field('Billing', order.billingType);
  if (order.activateBy) w.field('Activate by', order.activateBy);
  if (order.sampleId) w.field('Sample id', order.sampleId);
  if (order.origin !== 'created') w.field('Origin', order.origin);
  if (order.updateReason) w.field('Replaces order', `${str(order.originalOrderId)} (${order.updateReason})`);

  const p = order.patientDetails;
  const a = order.patientAddress;
  w.heading('Patient');
  w.field('Name', `${str(p.first_name)} ${str(p.last_name)}`.trim());
  w.field('Date of birth', str(p.dob).slice(0, 10));
  w.field('Sex', str(p.gender));
  w.field('Phone', str(p.phone_number));
  w.field('E-mail', str(p.email));
  w.field('Address', [a.first_line, a.second_line].filter(Boolean).map(str).join(', '));
  w.field('City', `${str(a.city)}, ${str(a.state)} ${str(a.zip)} ${str(a.country ?? 'US')}`.trim());
  if (a.access_notes) w.field('Access notes', str(a.access_notes));

  const doctor = order.physician;
  w.heading('Ordering physician');
  if (doctor) {
    w.field('Name', `${str(doctor.first_name)} ${str(doctor.last_name)}`.trim());
    w.field('NPI', str(doctor.npi));
  } else {
    w.field('Name', 'none given on the order');
  }

  // The lab needs the diagnosis to run (and the payor to pay for) the tests: always printed, even as "none".
  w.heading('Diagnosis (ICD-10)');
  w.field('Codes', order.icdCodes?.length ? order.icdCodes.join(', ') : 'none given on the order');

  if (order.billingType === 'commercial_insurance') printInsurance(w, order.healthInsurance);

  w.heading('Lab');
  w.field('Lab', lab ? `${lab.name} (${lab.slug})` : `lab ${test.labId}`);
  if (lab) w.field('Address', `${lab.firstLineAddress}, ${lab.city} ${lab.zipcode}`);
  w.field('Lab account', account ? `${account.accountName ?? account.labSlug} (${account.id})` : 'none');
  w.field('Provider account id', account?.providerAccountId);

  w.heading('Tests');
  w.field('Lab test', `${test.name} (${test.slug})`);
  for (const m of data.markers) {
    w.text(`${m.providerId}  ${m.name}${m.type === 'panel' ? ' (panel)' : ''}`, { indent: 20 });
  }
  if (data.markers.length === 0) w.text('(no markers)', { indent: 20 });

  w.heading('Clinical notes');
  w.text(requisitionClinicalNotes(order.clinicalNotes, account?.defaultClinicalNotes) ?? 'None', { indent: 8 });

  return doc.save();
}
