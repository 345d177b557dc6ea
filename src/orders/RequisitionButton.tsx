import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { API_URL } from '../providers/dataProvider';
import type { OrderRecord } from './types';

/** Same-origin link: the browser sends the session cookie and saves the PDF the BFF streams. */
export const requisitionUrl = (orderId: string) => `${API_URL}/orders/${encodeURIComponent(orderId)}/requisition.pdf`;

export const RequisitionButton = () => {
  const record = useRecordContext<OrderRecord>();
  if (!record) return null;
  return (
    <Button
      component="a"
      href={requisitionUrl(String(record.id))}
      download={`requisition-${record.id}.pdf`}
      startIcon={<DownloadIcon />}
      size="small"
    >
      Download requisition
    </Button>
  );
};
