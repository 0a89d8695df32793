import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import './app.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

// The server puts a fresh CSP nonce in this meta tag; the <style> elements Mantine writes carry it.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
// The scroll lock of modals (react-remove-scroll, through get-nonce) reads the nonce from here.
(globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;

const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" getStyleNonce={() => nonce}>
      <App />
    </MantineProvider>
  </StrictMode>,
);
