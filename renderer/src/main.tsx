// Entry of the scanner UI.
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import './styles.css';

createRoot(document.getElementById('root')!).render(<App />);
