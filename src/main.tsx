import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startFirstPage } from './firstPage';

// Who is signed in, the route's view and its first records, all on their way before React renders.
startFirstPage(window.location.hash);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
