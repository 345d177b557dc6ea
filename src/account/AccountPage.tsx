/**
 * The signed-in member's own account: who they are, their role, and two-factor sign-in. A member
 * whose role requires two-factor is sent here until they have set it up (the BFF refuses anything
 * else meanwhile).
 */
import { useState } from 'react';
import { Alert, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { Title, useNavigate } from 'react-admin';
import { ROLE_LABELS, type Role } from '../../server/bff/api';
import { getCurrentUser, isMfaEnrolmentRequired } from '../providers/session';
import { MfaEnrolment } from './MfaEnrolment';

export const AccountPage = () => {
  const [user, setUser] = useState(getCurrentUser);
  const [enrolling, setEnrolling] = useState(isMfaEnrolmentRequired());
  const [required, setRequired] = useState(isMfaEnrolmentRequired());
  const navigate = useNavigate();
  if (!user) return null;
  const done = () => {
    setUser(getCurrentUser());
    setEnrolling(false);
    const wasRequired = required;
    setRequired(false);
    if (wasRequired) navigate('/');
  };
  return (
    <Card sx={{ mt: 2, maxWidth: 640 }}>
      <Title title="Your account" />
      <CardContent>
        <Stack spacing={2}>
          <div>
            <Typography variant="h6" component="h2">
              {user.name || user.email}
            </Typography>
            <Typography color="text.secondary">{user.email}</Typography>
            <Chip size="small" sx={{ mt: 1 }} label={ROLE_LABELS[user.role as Role] ?? user.role} />
          </div>
          <Typography variant="h6" component="h2">
            Two-factor sign-in
          </Typography>
          {required && (
            <Alert severity="warning">Your role requires two-factor sign-in. Set it up to start using Labdesk.</Alert>
          )}
          {user.mfa_enabled ? (
            <Alert severity="success">On: signing in asks for a code from your authenticator app. Lost your phone? Ask an admin to reset it.</Alert>
          ) : enrolling ? (
            <MfaEnrolment onDone={done} />
          ) : (
            <Stack direction="row" spacing={2} alignItems="center">
              <Typography>Off: your password alone signs you in.</Typography>
              <Button variant="contained" onClick={() => setEnrolling(true)}>
                Set up two-factor
              </Button>
            </Stack>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
};
