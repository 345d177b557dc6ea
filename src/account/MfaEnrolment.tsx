/**
 * Setting up two-factor: a QR code of the new secret (and the secret itself, for typing in), then
 * the 6-digit code the app shows, which proves the phone has it. Only then does sign-in ask for
 * codes; closing halfway leaves sign-in as it was.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import QRCode from 'qrcode';
import { HttpError, useDataProvider } from 'react-admin';
import type { MfaEnrolment as Enrolment } from '../../server/bff/api';
import { SecretBox } from '../components/SecretBox';
import type { LabdeskDataProvider } from '../providers/types';

const fieldError = (e: unknown) => (e instanceof HttpError ? (e.body as { errors?: Record<string, string> } | undefined)?.errors?.code : undefined);

export const MfaEnrolment = ({ onDone }: { onDone: () => void }) => {
  const dataProvider = useDataProvider<LabdeskDataProvider>();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    dataProvider
      .startMfaEnrolment()
      .then(async (e) => {
        if (!live) return;
        setEnrolment(e);
        setQr(await QRCode.toDataURL(e.otpauth_url, { margin: 1, width: 200, errorCorrectionLevel: 'M' }));
      })
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : 'Two-factor set-up could not start'));
    return () => {
      live = false;
    };
  }, [dataProvider]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await dataProvider.confirmMfaEnrolment(code);
      onDone();
    } catch (e) {
      setError(fieldError(e) ? `${fieldError(e)}: check the time on your phone and enter the code it shows now` : e instanceof Error ? e.message : 'The code was not accepted');
      setBusy(false);
    }
  };

  if (!enrolment) return error ? <Alert severity="error">{error}</Alert> : <CircularProgress aria-label="Preparing two-factor set-up" />;
  return (
    <Stack spacing={2} component="form" onSubmit={submit} noValidate>
      <Typography>1. Scan this code with an authenticator app (Google Authenticator, 1Password, Authy, …).</Typography>
      <Box>{qr && <img src={qr} alt="QR code of your two-factor secret" width={200} height={200} />}</Box>
      <Typography variant="body2" color="text.secondary">
        Cannot scan? Type this key into the app instead:
      </Typography>
      <SecretBox secret={enrolment.secret} copyLabel="Copy key" testId="mfa-secret" />
      <Typography>2. Enter the 6-digit code the app shows.</Typography>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Stack direction="row" spacing={2} alignItems="flex-start">
        <TextField
          label="Code"
          name="code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
          sx={{ width: 160 }}
        />
        <Button type="submit" variant="contained" disabled={busy || code.replace(/\s/g, '').length !== 6}>
          Turn on two-factor
        </Button>
      </Stack>
    </Stack>
  );
};
