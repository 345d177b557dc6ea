/**
 * The sign-in page. Staff sign in with their e-mail address (react-admin's stock form says
 * "Username"), and a failed attempt says why right under the form instead of in a toast that
 * disappears: wrong credentials and rate limiting need different reactions from the user.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Avatar, Box, Button, Card, CardContent, CircularProgress, TextField, Typography } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import { useCheckAuth, useLogin, useNavigate } from 'react-admin';
import { MfaRequiredError } from '../providers/authProvider';

export const Login = () => {
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Shown once the BFF says the account has two-factor on (the password was right).
  const [askCode, setAskCode] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const checkAuth = useCheckAuth();
  const navigate = useNavigate();

  // Someone who is already signed in (another tab, a bookmark to /login) goes straight in.
  useEffect(() => {
    checkAuth({}, false)
      .then(() => navigate('/'))
      .catch(() => {
        // not signed in: this page is the right place
      });
  }, [checkAuth, navigate]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSubmitting(true);
    try {
      await login({ email: email.trim(), password, ...(askCode && { code: code.trim() }) });
    } catch (failure) {
      if (failure instanceof MfaRequiredError) {
        // The first time, the code field appears with a hint, not an error; after that, say why.
        setError(askCode ? failure.message : null);
        setAskCode(true);
        setCode('');
      } else {
        setError(failure instanceof Error && failure.message ? failure.message : 'Sign-in failed. Try again.');
      }
      setSubmitting(false);
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'flex-start', justifyContent: 'center', bgcolor: 'background.default' }}>
      <Card sx={{ mt: '12vh', width: 360 }}>
        <CardContent>
          <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
              <Avatar sx={{ bgcolor: 'primary.main' }}>
                <LockIcon />
              </Avatar>
              <Typography variant="h5" component="h1">
                Sign in to Labdesk
              </Typography>
            </Box>
            {error && (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            )}
            <TextField
              label="Email"
              type="email"
              name="email"
              autoComplete="username"
              autoFocus
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              disabled={submitting}
            />
            <TextField
              label="Password"
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              disabled={submitting}
            />
            {askCode && (
              <TextField
                label="Authentication code"
                name="code"
                autoComplete="one-time-code"
                autoFocus
                required
                value={code}
                onChange={(e) => setCode(e.target.value)}
                disabled={submitting}
                helperText="The 6-digit code your authenticator app shows for Labdesk"
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
              />
            )}
            <Button type="submit" variant="contained" size="large" disabled={submitting || !email || !password || (askCode && code.trim().length < 6)}>
              {submitting ? <CircularProgress size={24} aria-label="Signing in" /> : 'Sign in'}
            </Button>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
};
