import ws from 'k6/ws';
export default function () { ws.connect('ws://127.0.0.1'); }
