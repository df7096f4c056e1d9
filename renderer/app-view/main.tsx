// The window's tokens and controls, and the sheets of the parts the app reuses (its own components import theirs too).
import '../src/styles/tokens.css';
import '../src/styles/base.css';
import '../src/folders/folders.css';
import '../src/resources/resources.css';
import '../src/search/search.css';
import '../src/preview/preview.css';
import './app.css';

import { createRoot } from 'react-dom/client';

import { HostLink } from './hostLink';
import { ShelfApp } from './ShelfApp';

/** The in-chat app's view: connect to the host first (it may send the tool's input at once), then render. */
const link = new HostLink();
void link.connect();
createRoot(document.getElementById('root') as HTMLElement).render(<ShelfApp link={link} />);
