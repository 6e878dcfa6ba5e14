import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { AppRoutes, Session } from './App';
import { makeStore } from './store/store';
import './styles.css';
import './cockpit.css';

const store = makeStore();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <BrowserRouter useTransitions={false}>
        <Session />
        <AppRoutes />
      </BrowserRouter>
    </Provider>
  </StrictMode>,
);
