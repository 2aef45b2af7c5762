// The nginx configuration the benches measure their ceiling with: nginx serving files from `root`
// on 127.0.0.1:`port`, one worker per core, as fast as its defaults allow.
import { availableParallelism } from "node:os";

export function nginxConf({ dir, port, root, type, location = "" }) {
  return `worker_processes ${availableParallelism()};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  types { }
  default_type "${type}";
  server {
    listen 127.0.0.1:${port};
    root ${root};
    ${location}
  }
}
`;
}
