# stampede in a container, for "stampede k8s manifest" (docs/scale.md).
#
#   docker build -t stampede:dev .
#   docker run --rm stampede:dev version
#
# A static binary (CGO_ENABLED=0: every driver, SQLite included, is pure
# Go) on distroless/static, running as the non-root user 65532 with its
# home directory as the working directory (embedded data goes there).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/stampede ./cmd/stampede

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/stampede /usr/local/bin/stampede
WORKDIR /home/nonroot
ENTRYPOINT ["stampede"]
