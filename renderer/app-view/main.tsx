import '../src/styles.css';
import './app.css';

import { createRoot } from 'react-dom/client';

import { HostLink } from './hostLink';
import { ShelfApp } from './ShelfApp';

/** The in-chat app's view: connect to the host first (it may send the tool's input at once), then render. */
const link = new HostLink();
void link.connect();
createRoot(document.getElementById('root') as HTMLElement).render(<ShelfApp link={link} />);
