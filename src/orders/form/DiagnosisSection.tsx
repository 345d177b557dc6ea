/**
 * ICD-10 diagnosis codes: typed as a list, each checked for its form as you type, and the list
 * sent to the service's check (through the BFF) once you pause: its verdict is shown per code
 * (unknown or category codes, codes never coded together, overlaps to be aware of).
 */
import { useEffect, useState } from 'react';
import { Alert, Box, Chip, List, ListItem, Typography } from '@mui/material';
import { TextInput, useDataProvider } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { ICD10_CODE } from '../../../server/contract';
import type { IcdCodesVerdict } from '../../../server/bff/api';
import type { LabdeskDataProvider } from '../../providers/types';
import { SectionTitle } from './layout';

/** "E11.9, I10 z00.00" → ["E11.9", "I10", "Z00.00"]. */
export const splitIcdCodes = (text: unknown): string[] =>
  typeof text === 'string' ? text.split(/[\s,;]+/).map((c) => c.trim().toUpperCase()).filter(Boolean) : [];

export function checkIcdFormat(text: unknown): string | undefined {
  const bad = splitIcdCodes(text).filter((c) => !ICD10_CODE.test(c));
  if (!bad.length) return undefined;
  return `Not in ICD-10 form: ${bad.join(', ')}. A code is a letter, a digit, a letter or digit, then optionally a dot and up to 4 more (E11.9)`;
}

/** Wait this long after the last keystroke before asking the service. */
const PAUSE_MS = 400;

type Verdict = { codes: string[]; answer: IcdCodesVerdict } | { codes: string[]; failed: string };

function useIcdVerdict(codes: string[]): Verdict | undefined {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const [verdict, setVerdict] = useState<Verdict>();
  const key = codes.join(',');
  useEffect(() => {
    const wellFormed = key ? key.split(',') : [];
    if (!wellFormed.length || wellFormed.some((c) => !ICD10_CODE.test(c))) {
      setVerdict(undefined);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      dataProvider
        .validateIcdCodes(wellFormed)
        .then((answer) => current && setVerdict({ codes: wellFormed, answer }))
        .catch((err: unknown) => current && setVerdict({ codes: wellFormed, failed: err instanceof Error ? err.message : 'The check failed' }));
    }, PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, dataProvider]);
  return verdict && verdict.codes.join(',') === key ? verdict : undefined;
}

const CodeVerdict = ({ code, answer }: { code: string; answer: IcdCodesVerdict }) => {
  const errors = answer.errors.filter((e) => e.toUpperCase().startsWith(`${code}:`)).map((e) => e.slice(e.indexOf(':') + 1).trim());
  const conflicts = answer.violations.filter((v) => v.code === code).map((v) => `not coded together with ${v.conflicts_with} (${v.type})`);
  const overlaps = answer.warnings.filter((w) => w.code === code).map((w) => `overlaps ${w.overlaps_with} (${w.type}); code both only if the patient has both`);
  const problems = [...errors, ...conflicts];
  return (
    <ListItem disableGutters sx={{ py: 0.25, gap: 1, alignItems: 'baseline' }} aria-label={`ICD-10 ${code}`}>
      <Chip size="small" label={code} color={problems.length ? 'error' : overlaps.length ? 'warning' : 'success'} variant="outlined" />
      <Typography variant="body2" color={problems.length ? 'error' : 'text.secondary'}>
        {[...problems, ...overlaps].join('; ') || 'Valid, billable'}
      </Typography>
    </ListItem>
  );
};

export const DiagnosisSection = () => {
  const text: unknown = useWatch({ name: 'icd_codes_text' });
  const codes = [...new Set(splitIcdCodes(text))];
  const verdict = useIcdVerdict(codes);
  return (
    <>
      <SectionTitle>Diagnosis</SectionTitle>
      <TextInput
        source="icd_codes_text"
        label="ICD-10 codes"
        validate={checkIcdFormat}
        helperText="Optional. Separate codes with commas or spaces, e.g. E11.9, I10; each is checked against the ICD-10-CM code set."
        fullWidth
      />
      {verdict && 'answer' in verdict && (
        <Box role="status" aria-label="ICD-10 check" sx={{ mb: 2 }}>
          <List dense disablePadding>
            {verdict.codes.map((code) => (
              <CodeVerdict key={code} code={code} answer={verdict.answer} />
            ))}
          </List>
        </Box>
      )}
      {verdict && 'failed' in verdict && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          The codes could not be checked ({verdict.failed}). You can still place the order; change a code to check again.
        </Alert>
      )}
    </>
  );
};
