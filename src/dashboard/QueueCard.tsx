/** One queue of the overview: a title, its count, the list it opens, and what an empty queue says. */
import { Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface QueueCardProps {
  title: string;
  /** The count as shown ("3", "500+"); 0 shows `empty` instead of the action. */
  count: number;
  countText: string;
  /** The filtered list and the button that opens it. */
  to: string;
  action: string;
  empty?: string;
  children?: ReactNode;
}

/** The id of a card's heading, which names its section. */
export const queueHeadingId = (title: string) => `queue-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export const QueueCard = ({ title, count, countText, to, action, empty = 'Nothing waiting', children }: QueueCardProps) => {
  const headingId = queueHeadingId(title);
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined" sx={{ display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flex: 1 }}>
        <Typography id={headingId} variant="subtitle1" component="h2" color="text.secondary">
          {title}
        </Typography>
        <Typography variant="h3" component="p" aria-label={`${title}: ${countText}`}>
          {countText}
        </Typography>
        {count === 0 ? <Typography color="text.secondary">{empty}</Typography> : children}
      </CardContent>
      <CardActions>
        <Button component={Link} to={to} size="small">
          {action}
        </Button>
      </CardActions>
    </Card>
  );
};
