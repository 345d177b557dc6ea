/**
 * The lab's questions (ask at order entry): every marker of the chosen lab test and every add-on
 * marker that asks questions gets them asked here, required ones required, with the lab's default
 * answer filled in. Answers to markers no longer in the order are dropped, so the service never
 * gets an answer to a question nobody asks.
 */
import { useEffect } from 'react';
import { Box, Typography } from '@mui/material';
import { NumberInput, regex, required, SelectArrayInput, SelectInput, TextInput, useGetMany } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import type { AoeQuestion } from '../../../server/contract';
import type { z } from 'zod';
import { useChosenLabTest } from './labChoices';
import { SectionTitle } from './layout';

type Question = z.infer<typeof AoeQuestion>;
interface AskingMarker {
  id: number;
  name: string;
  questions: Question[];
}

/** The form keeps each answer at `aoe.<key>`; toCreateOrderBody reads the ids back from the key. */
export const aoeKey = (markerId: number, questionId: number) => `m${markerId}_q${questionId}`;
export const AOE_KEY = /^m(\d+)_q(\d+)$/;

const questionsOf = (m: { aoe?: { questions: Question[] } | null }) => [...(m.aoe?.questions ?? [])].sort((a, b) => a.sequence - b.sequence);

/** Markers of the order that ask questions: the lab test's, then the add-ons not already in it. */
function useAskingMarkers(): AskingMarker[] {
  const test = useChosenLabTest();
  const addOnIds: unknown = useWatch({ name: 'order_set.add_on.marker_ids' });
  const ids = Array.isArray(addOnIds) ? addOnIds.filter((id): id is number => typeof id === 'number') : [];
  const { data: addOns } = useGetMany('markers', { ids }, { enabled: ids.length > 0 });
  const all = [...(test?.markers ?? []), ...(ids.length ? (addOns ?? []) : [])];
  const seen = new Set<number>();
  return all.flatMap((m) => {
    if (seen.has(m.id)) return [];
    seen.add(m.id);
    const questions = questionsOf(m);
    return questions.length ? [{ id: m.id, name: m.name, questions }] : [];
  });
}

const QuestionInput = ({ marker, question }: { marker: AskingMarker; question: Question }) => {
  const source = `aoe.${aoeKey(marker.id, question.id)}`;
  const validate = [
    ...(question.required ? [required()] : []),
    ...(question.type === 'text' && question.constraint ? [regex(new RegExp(question.constraint), 'This answer does not have the form the lab expects')] : []),
  ];
  const common = { source, label: question.value, validate, fullWidth: true, helperText: question.required ? 'Required by the lab' : 'Optional' };
  const choices = question.answers.map((a) => ({ id: a.code, name: a.value }));
  switch (question.type) {
    case 'choice':
      return <SelectInput {...common} choices={choices} defaultValue={question.default ?? undefined} />;
    case 'multi_choice':
      return <SelectArrayInput {...common} choices={choices} />;
    case 'numeric':
      return <NumberInput {...common} />;
    default:
      return <TextInput {...common} defaultValue={question.default ?? undefined} />;
  }
};

export const AoeSection = () => {
  const markers = useAskingMarkers();
  const { getValues, setValue } = useFormContext();
  const askedKeys = markers.flatMap((m) => m.questions.map((q) => aoeKey(m.id, q.id))).join(',');

  useEffect(() => {
    const answers = (getValues('aoe') ?? {}) as Record<string, unknown>;
    const asked = new Set(askedKeys ? askedKeys.split(',') : []);
    const stale = Object.keys(answers).filter((k) => !asked.has(k));
    if (stale.length) setValue('aoe', Object.fromEntries(Object.entries(answers).filter(([k]) => asked.has(k))));
  }, [askedKeys, getValues, setValue]);

  if (!markers.length) return null;
  return (
    <>
      <SectionTitle>The lab&apos;s questions</SectionTitle>
      {markers.map((marker) => (
        <Box key={marker.id} role="group" aria-label={`Questions for ${marker.name}`} sx={{ width: '100%' }}>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            {marker.name}
          </Typography>
          {marker.questions.map((question) => (
            <QuestionInput key={question.id} marker={marker} question={question} />
          ))}
        </Box>
      ))}
    </>
  );
};
