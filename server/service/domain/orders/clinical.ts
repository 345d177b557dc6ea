/**
 * The clinical parts of a new order: the lab's questions (AOE) every marker asks, the insurance
 * row data and the consents as recorded. Kept apart from place.ts, which decides tests and accounts.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AoeQuestion, HealthInsurance, RecordedConsent } from '../../../contract';
import { Invalid } from '../errors';

type Question = z.infer<typeof AoeQuestion>;
export interface AoeAnswerInput {
  marker_id: number;
  question_id: number;
  answer: string;
}
interface AskingMarker {
  id: number;
  name: string;
  aoe: unknown;
}

const questionsOf = (m: AskingMarker): Question[] => ((m.aoe as { questions?: Question[] } | null)?.questions ?? []);

/**
 * Checks the answers against the questions of the order's markers and completes them: a required
 * question left unanswered takes its default (a lab's "No" to fasting), else it is a 422 naming
 * the question and its marker; an answer to a question no marker of the order asks is refused, as is
 * a choice outside the question's answers or text that breaks its constraint.
 */
export function checkAoeAnswers(markers: AskingMarker[], given: AoeAnswerInput[] | null | undefined): AoeAnswerInput[] {
  const answers = [...(given ?? [])];
  const loc = ['body', 'aoe_answers'];
  const asked = new Map<string, { marker: AskingMarker; question: Question }>();
  for (const marker of markers) for (const question of questionsOf(marker)) asked.set(`${marker.id}:${question.id}`, { marker, question });
  for (const [i, a] of answers.entries()) {
    const hit = asked.get(`${a.marker_id}:${a.question_id}`);
    if (!hit) throw new Invalid([...loc, i], `no marker of this order asks question ${a.question_id} (marker ${a.marker_id})`, 'value_error.aoe_unknown_question');
    const { question, marker } = hit;
    const text = a.answer.trim();
    if (question.type === 'choice' || question.type === 'multi_choice') {
      const picked = question.type === 'multi_choice' ? text.split(',').map((x) => x.trim()).filter(Boolean) : [text];
      const bad = picked.filter((p) => !question.answers.some((x) => x.code === p || x.value === p || String(x.id) === p));
      if (bad.length || !picked.length) {
        throw new Invalid([...loc, i, 'answer'], `"${question.value}" (${marker.name}) takes one of: ${question.answers.map((x) => x.code).join(', ')}`, 'value_error.aoe_answer');
      }
    } else if (question.type === 'numeric' && !Number.isFinite(Number(text))) {
      throw new Invalid([...loc, i, 'answer'], `"${question.value}" (${marker.name}) takes a number`, 'value_error.aoe_answer');
    } else if (question.constraint && !new RegExp(question.constraint).test(text)) {
      throw new Invalid([...loc, i, 'answer'], `"${question.value}" (${marker.name}): the answer does not have the expected form`, 'value_error.aoe_answer');
    }
  }
  for (const { marker, question } of asked.values()) {
    if (!question.required) continue;
    if (answers.some((a) => a.marker_id === marker.id && a.question_id === question.id && a.answer.trim())) continue;
    if (question.default) {
      answers.push({ marker_id: marker.id, question_id: question.id, answer: question.default });
      continue;
    }
    throw new Invalid(loc, `the lab asks "${question.value}" for ${marker.name} (marker ${marker.id}, question ${question.id}): an answer is required`, 'value_error.aoe_required');
  }
  return answers;
}

/** The insurance as stored and read back: the card images are not kept. */
export function insuranceRecord(insurance: HealthInsurance | null | undefined): { data: Record<string, unknown>; id: string } | null {
  if (!insurance) return null;
  const { front_image: _f, back_image: _b, patient_signature_image: _s, ...data } = insurance;
  return { data: { ...data, group_id: data.group_id ?? null, responsible_details: data.responsible_details ?? null }, id: randomUUID() };
}

/** Each consent with its version and the time it was given (now, when the caller did not say). */
export function recordConsents(consents: { consentType: string; version?: string | null; timeOfConsent?: string | null }[] | null | undefined, now = new Date()): RecordedConsent[] | null {
  if (!consents?.length) return null;
  return consents.map((c) => ({
    consentType: c.consentType,
    version: c.version ?? null,
    timeOfConsent: c.timeOfConsent ? new Date(c.timeOfConsent).toISOString() : now.toISOString(),
  }));
}
