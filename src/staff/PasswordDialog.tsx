/**
 * A generated password, shown once: the BFF keeps only its hash. The admin hands it to the member
 * over a channel of their choosing; nothing shows it again.
 */
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { SecretBox } from '../components/SecretBox';

export const PasswordDialog = ({ email, password, onClose }: { email: string; password: string; onClose: () => void }) => (
  <Dialog open aria-labelledby="password-title" maxWidth="sm" fullWidth>
    <DialogTitle id="password-title">Password for {email}</DialogTitle>
    <DialogContent>
      <DialogContentText sx={{ mb: 1 }}>Give this password to the member. They sign in with their e-mail and this password.</DialogContentText>
      <SecretBox secret={password} copyLabel="Copy password" testId="generated-password" />
      <Alert severity="warning" sx={{ mt: 2 }}>
        It will not be shown again. If it is lost, reset the password from the member&apos;s page.
      </Alert>
    </DialogContent>
    <DialogActions>
      <Button variant="contained" onClick={onClose}>
        I have passed it on
      </Button>
    </DialogActions>
  </Dialog>
);
